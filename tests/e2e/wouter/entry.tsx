import { hydrateRoot } from 'react-dom/client';
import { App } from '../../../runtime/app.tsx';
import { createFixtureNavigation, layouts, type Recorded } from './app.tsx';

/** The browser side of tests/e2e/wouter.spec.ts: hydrates the server's markup, and shows the test what wouter asked for. */
const recorded: Recorded[] = [];
Object.assign(window, { recorded });
hydrateRoot(
  document.getElementById('app')!,
  <App nav={createFixtureNavigation(location.pathname + location.search, recorded)} layouts={layouts} />,
);
