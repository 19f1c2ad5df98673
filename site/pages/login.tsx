import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { fetchViewer, getGraphQLClient, isPreviewMode, Link, login, type PageProps } from '../../runtime/index.ts';
import { PageHeader } from '../components/page-header.tsx';

/** The backend's login mutation (site/schema.graphql): a token for `Authorization: Bearer …`. */
export const LOGIN_MUTATION = `mutation Login($email: String!, $password: String!) {
  login(email: $email, password: $password) {
    token
    viewer {
      name
    }
  }
}`;

type LoginResult = { login: { token: string; viewer: { name: string } } };

type Status = { kind: 'idle' | 'busy' } | { kind: 'error'; message: string };

/**
 * `/login`: editors log in here to preview drafts and unpublished changes on every page. Not in the
 * sitemap (noindex). The form submits only once the page has hydrated: before that there is nothing to
 * send it to, and a password must never end up in a URL.
 */
export default function LoginPage(_props: PageProps): ReactElement {
  const [hydrated, setHydrated] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [viewer, setViewer] = useState<{ name: string } | null>(null);

  useEffect(() => {
    setHydrated(true);
    if (isPreviewMode()) fetchViewer().then(setViewer, () => undefined);
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setStatus({ kind: 'busy' });
    try {
      const client = await getGraphQLClient();
      const result = await client.mutate<LoginResult>(LOGIN_MUTATION, {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
      });
      login(result.login.token);
      setViewer(result.login.viewer);
      setStatus({ kind: 'idle' });
    } catch (error) {
      setStatus({ kind: 'error', message: loginErrorMessage(error) });
    }
  };

  return (
    <div className="login-page">
      <PageHeader title="Editor login" lead="Log in to see drafts and unpublished changes on every page of the site." />
      {viewer ? (
        <div className="login-page__done" role="status">
          <p>
            You are logged in as <strong className="login-page__viewer">{viewer.name}</strong>. Preview mode is on until you log out.
          </p>
          <p>
            <Link href="/" className="button">
              Go to the home page
            </Link>
          </p>
        </div>
      ) : (
        <form
          className="login-form"
          method="post"
          onSubmit={(event) => void submit(event)}
          aria-describedby={status.kind === 'error' ? 'login-error' : undefined}
        >
          <p className="login-form__field">
            <label htmlFor="login-email">Email</label>
            <input id="login-email" name="email" type="email" autoComplete="username" required />
          </p>
          <p className="login-form__field">
            <label htmlFor="login-password">Password</label>
            <input id="login-password" name="password" type="password" autoComplete="current-password" required />
          </p>
          {status.kind === 'error' ? (
            <p id="login-error" className="login-form__error" role="alert">
              {status.message}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={!hydrated || status.kind === 'busy'}>
            {status.kind === 'busy' ? 'Logging in…' : 'Log in'}
          </button>
        </form>
      )}
    </div>
  );
}

/** What to tell the editor: the API's own message (wrong credentials), or what else went wrong. */
function loginErrorMessage(error: unknown): string {
  const failure = error as { name?: string; kind?: string; message?: string; graphqlErrors?: readonly { message: string }[] } | null;
  const fromApi = failure?.kind === 'graphql' ? failure.graphqlErrors?.[0]?.message : undefined;
  if (fromApi) return fromApi;
  if (failure?.name === 'LiveApiUnavailableError')
    return 'Editor preview is not available on this site: it was built without a public GraphQL endpoint.';
  return 'The login service could not be reached. Check your connection and try again.';
}
