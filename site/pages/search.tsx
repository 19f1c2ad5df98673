import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { PageProps } from '../../runtime/index.ts';
import { PageHeader } from '../components/page-header.tsx';
import { SearchResult } from '../components/search-result.tsx';
import { useHydrated } from '../components/use-hydrated.ts';
import { loadPagefind, loadSearchParts, type Pagefind, type PagefindResultData, type PagefindSearch } from '../data/pagefind.ts';
import { pagefindFilters, searchHref, searchQueryFrom, type SearchQuery } from '../data/search-query.ts';
import { SEARCH_SECTIONS, sectionLabel } from '../data/search-sections.ts';
import { plural } from '../format/numbers.ts';

/** Results shown at first, and added by each "More results". */
const PAGE_SIZE = 10;
/** Milliseconds of no typing before the address (and so the results) follow the field. */
const TYPING_DELAY_MS = 250;

type Outcome =
  | { kind: 'idle' }
  | { kind: 'done'; query: SearchQuery; search: PagefindSearch; results: PagefindResultData[] }
  | { kind: 'unavailable' };

const NO_QUERY: SearchQuery = { q: '', section: null, year: null };

/**
 * `/search`: the site search, in the browser against the index the build writes (cli/output/search-index.ts).
 * The search is the address (`?q=…&section=…&year=…`, site/data/search-query.ts): typing replaces it,
 * Enter and the filters add a history entry, so Back steps through searches and a search can be shared.
 * The prerendered page has no query, so it shows the form and says search needs JavaScript; once
 * hydrated it reads the address and searches. Its policy alone allows WebAssembly (site/routes.ts).
 */
export default function SearchPage(_props: PageProps): ReactElement {
  const hydrated = useHydrated();
  const search = useSearch();
  const query = hydrated ? searchQueryFrom(search) : NO_QUERY;
  const [, navigate] = useLocation();
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const typing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  /** The result that takes focus once rendered: the first that "More results" added. */
  const focusAt = useRef<number | null>(null);

  // The field follows the address (Back, Forward, a shared link), unless it already says the same.
  useEffect(() => {
    setText((current) => (current.trim() === query.q ? current : query.q));
  }, [query.q]);

  useEffect(() => {
    if (!query.q) {
      setOutcome({ kind: 'idle' });
      return;
    }
    let current = true;
    runSearch(query).then(
      (done) => void (current && setOutcome(done)),
      () => void (current && setOutcome({ kind: 'unavailable' })),
    );
    return () => {
      current = false;
    };
    // The query's parts, not the object, which is new on every render.
  }, [query.q, query.section, query.year]);

  const go = (next: SearchQuery, replace = false): void => {
    if (typing.current) clearTimeout(typing.current);
    navigate(searchHref(next), { replace });
  };
  const onType = (value: string): void => {
    setText(value);
    if (typing.current) clearTimeout(typing.current);
    typing.current = setTimeout(() => go({ ...query, q: value.trim() }, true), TYPING_DELAY_MS);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    go({ ...query, q: text.trim() });
  };
  const more = async (): Promise<void> => {
    if (outcome.kind !== 'done') return;
    const shown = outcome.results.length;
    const next = await Promise.all(outcome.search.results.slice(shown, shown + PAGE_SIZE).map((r) => r.data()));
    // The first new result takes focus once it is rendered (the effect below), so a keyboard or screen
    // reader user goes on where the list grew. A frame requested here could come before React renders
    // the new results on a busy machine, and focus nothing.
    focusAt.current = shown;
    setOutcome({ ...outcome, results: [...outcome.results, ...next] });
  };
  useEffect(() => {
    if (focusAt.current === null || outcome.kind !== 'done') return;
    resultLinks(list.current)[focusAt.current]?.focus();
    focusAt.current = null;
  }, [outcome]);

  return (
    <div className="search-page">
      <PageHeader title="Search" lead="News, events, publications, research, courses, documents and people." />
      <form className="search-form" role="search" aria-label="Search the site" action="/search" method="get" onSubmit={onSubmit}>
        <label htmlFor="search-field" className="search-form__label">
          Search for
        </label>
        <input
          ref={field}
          id="search-field"
          className="search-form__field"
          type="search"
          name="q"
          value={text}
          onChange={(event) => onType(event.target.value)}
          onKeyDown={(event) => moveIntoResults(event, list.current)}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          aria-describedby="search-status"
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {hydrated ? null : (
        <p className="search-page__note">
          Search needs JavaScript, which is turned off or has not loaded. Browse the sections in the menu instead.
        </p>
      )}
      <p id="search-status" className="search-page__status" role="status">
        {hydrated ? statusText(query, outcome) : ''}
      </p>
      {outcome.kind === 'done' && outcome.search.unfilteredResultCount > 0 ? (
        <Filters query={query} search={outcome.search} go={go} />
      ) : null}
      {outcome.kind === 'done' && outcome.results.length > 0 ? (
        <>
          <ol
            ref={list}
            className="search-results"
            aria-label="Results"
            onKeyDown={(event) => moveBetweenResults(event, list.current, field.current)}
          >
            {outcome.results.map((result, i) => (
              <li key={`${i} ${result.url}`}>
                <SearchResult result={result} />
              </li>
            ))}
          </ol>
          {outcome.results.length < outcome.search.results.length ? (
            <button type="button" className="button button--quiet search-page__more" onClick={() => void more()}>
              More results
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** Starts loading the search (Pagefind's module) before the visitor reaches the page: the header's field calls it on focus. */
export function preloadSearch(): void {
  void loadPagefind().catch(() => undefined);
}

// --- internal ---

/** The section and year filters, with the number of results for the words alone in each. */
function Filters({ query, search, go }: { query: SearchQuery; search: PagefindSearch; go: (next: SearchQuery) => void }): ReactElement {
  const sections = search.totalFilters.section ?? {};
  const years = Object.entries(search.totalFilters.year ?? {})
    .filter(([year, count]) => count > 0 || year === query.year)
    .sort(([a], [b]) => b.localeCompare(a));
  return (
    <div className="search-filters">
      <fieldset className="search-filters__sections">
        <legend>Section</legend>
        {[
          { id: null, label: 'All', count: search.unfilteredResultCount },
          ...SEARCH_SECTIONS.map((s) => ({ id: s.id as string | null, label: s.label, count: sections[s.id] ?? 0 })),
        ]
          .filter((option) => option.count > 0 || option.id === query.section)
          .map((option) => (
            <label key={option.id ?? 'all'} className="search-filters__option">
              <input
                type="radio"
                name="section"
                checked={query.section === option.id}
                onChange={() => go({ ...query, section: option.id })}
              />
              {option.label} <span className="search-filters__count">({option.count})</span>
            </label>
          ))}
      </fieldset>
      {years.length > 1 || query.year ? (
        <p className="search-filters__year">
          <label htmlFor="search-year">Year</label>
          <select id="search-year" value={query.year ?? ''} onChange={(event) => go({ ...query, year: event.target.value || null })}>
            <option value="">Any year</option>
            {years.map(([year, count]) => (
              <option key={year} value={year}>
                {year} ({count})
              </option>
            ))}
          </select>
        </p>
      ) : null}
    </div>
  );
}

let started: Promise<Pagefind> | null = null;

/** Words of a result's excerpt. */
const EXCERPT_WORDS = 24;

/** Pagefind, loaded and started once; a failure is tried again by the next search. */
function startPagefind(): Promise<Pagefind> {
  return (started ??= Promise.all([loadPagefind(), loadSearchParts()])
    .then(async ([pagefind, parts]) => {
      try {
        await pagefind.options({ excerptLength: EXCERPT_WORDS });
        await pagefind.init();
        // The filters' own index (a few hundred bytes): without it a search does not count its results per
        // section and year. Asked first of the first partition alone, which also shows whether it started:
        // a merge would wait for it without end.
        await pagefind.filters();
        if (parts.length > 0) {
          // A large site's index comes in partitions: each searched with the first, results ranked together.
          await Promise.all(parts.map((part) => pagefind.mergeIndex(part, { excerptLength: EXCERPT_WORDS })));
          await pagefind.filters();
        }
        return pagefind;
      } catch (error) {
        // A partition that failed stays among Pagefind's indexes: the next try starts from nothing.
        await pagefind.destroy().catch(() => undefined);
        throw error;
      }
    })
    .catch((error: unknown) => {
      started = null;
      throw error;
    }));
}

async function runSearch(query: SearchQuery): Promise<Outcome> {
  const pagefind = await startPagefind();
  const search = await pagefind.search(query.q, { filters: pagefindFilters(query) });
  if (!search) throw new Error('The search was superseded.');
  const results = await Promise.all(search.results.slice(0, PAGE_SIZE).map((r) => r.data()));
  return { kind: 'done', query, search, results };
}

/** What the status line says (and screen readers announce): how many results, for what. */
function statusText(query: SearchQuery, outcome: Outcome): string {
  if (outcome.kind === 'unavailable') return 'Search is not available at the moment. Please try again later.';
  if (outcome.kind !== 'done' || !query.q) return '';
  const where = [
    outcome.query.section ? ` in ${sectionLabel(outcome.query.section)}` : '',
    outcome.query.year ? ` from ${outcome.query.year}` : '',
  ].join('');
  const count = outcome.search.results.length;
  return count === 0 ? `No results for “${outcome.query.q}”${where}.` : `${plural(count, 'result')} for “${outcome.query.q}”${where}.`;
}

function resultLinks(list: HTMLElement | null): HTMLAnchorElement[] {
  return list ? [...list.querySelectorAll<HTMLAnchorElement>('.search-result__title a')] : [];
}

/** ArrowDown in the field goes to the first result. */
function moveIntoResults(event: KeyboardEvent<HTMLInputElement>, list: HTMLElement | null): void {
  if (event.key !== 'ArrowDown') return;
  const first = resultLinks(list)[0];
  if (!first) return;
  event.preventDefault();
  first.focus();
}

/** ArrowDown and ArrowUp step through the results' links; ArrowUp from the first goes back to the field. */
function moveBetweenResults(event: KeyboardEvent<HTMLElement>, list: HTMLElement | null, field: HTMLInputElement | null): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const links = resultLinks(list);
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at < 0) return;
  event.preventDefault();
  const next = event.key === 'ArrowDown' ? links[Math.min(at + 1, links.length - 1)] : at === 0 ? field : links[at - 1];
  next?.focus();
}
