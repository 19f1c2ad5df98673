import type { ReactElement } from 'react';
import { Link } from './link.tsx';
import type { PageError } from './shared/contract.ts';

/**
 * The message a visitor reads: a fixed sentence for 404, the error's own message otherwise
 * (docs/decisions/navigation-by-payloads.md, constants).
 */
export function errorMessageFor(error: PageError): string {
  return error.status === 404 ? 'The page could not be found.' : error.message;
}

/** Full-page error screen: the status code digit by digit in large coloured blocks, the message, a link home. */
export function ErrorScreen({ error }: { error: PageError }): ReactElement {
  const digits = String(error.status).split('');
  return (
    <main
      id="main"
      className="error-screen"
      tabIndex={-1}
      data-status={error.status}
      data-fatal={error.fatal}
      data-error-message={error.message}
    >
      <h1 className="error-screen__code" aria-label={`Error ${error.status}`}>
        {digits.map((digit, i) => (
          <span key={i} className={`error-screen__digit error-screen__digit--${i % 3}`} aria-hidden="true">
            {digit}
          </span>
        ))}
      </h1>
      <p className="error-screen__message">{errorMessageFor(error)}</p>
      <p>
        <Link href="/" className="error-screen__home">
          Please go back to homepage.
        </Link>
      </p>
    </main>
  );
}
