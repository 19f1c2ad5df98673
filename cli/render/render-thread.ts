/**
 * A render thread (render-threads.ts starts it): loads the site's code once, then renders and writes
 * the batches of pages the build sends, with the same renderer the main thread uses.
 */
import { parentPort } from 'node:worker_threads';
import { createPageRenderer, type PageDone, type PageRenderer } from './page-renderer.ts';
import { searchRoutesOf } from './search-documents.ts';
import type { FromThread, ToThread } from './render-threads.ts';
import { loadSiteModules } from '../config/site-modules.ts';
import { threadError } from '../errors/errors.ts';

const port = parentPort!;
const site = await loadSiteModules();
let renderer: PageRenderer | null = null;
const post = (message: FromThread): void => port.postMessage(message);

port.on('message', (message: ToThread) => {
  void handle(message).catch((error: unknown) => post({ type: 'failed', id: 'id' in message ? message.id : -1, ...threadError(error) }));
});
post({ type: 'ready' });

async function handle(message: ToThread): Promise<void> {
  if (message.type === 'init') {
    const search = message.search ? { routes: searchRoutesOf(site.routeData), exclude: site.search.exclude } : null;
    renderer = createPageRenderer(
      { ...message.ctx, routes: site.routes, layouts: site.layouts, modules: site.modules },
      message.siteDir,
      message.payloadBudget,
      message.sharedMarkup,
      message.reuseFrom,
      search,
    );
    return;
  }
  if (!renderer) throw new Error('The render thread got pages before the build context.');
  if (message.type === 'pages') {
    const done: PageDone[] = [];
    for (const task of message.tasks) done.push(await renderer.render(task));
    post({ type: 'done', id: message.id, done });
    return;
  }
  await renderer.drain();
  post({ type: 'drained', id: message.id });
}
