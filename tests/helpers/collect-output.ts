import type { BuiltPage, OutputContext, OutputDefinition, OutputFile } from '../../runtime/shared/route-data.ts';

/** Runs an extra output over a list of pages at once, as the build does over the pages it streams. */
export async function collectOutput(output: OutputDefinition, ctx: OutputContext, pages: Iterable<BuiltPage>): Promise<OutputFile[]> {
  const collector = output(ctx);
  const all = [...pages];
  for (const page of all) collector.page(page);
  const byPath = new Map(all.map((page) => [page.path, page.data]));
  return [
    ...(await collector.files({
      data: (path) => (byPath.has(path) ? Promise.resolve(byPath.get(path)) : Promise.reject(new Error(`no page ${path}`))),
    })),
  ];
}
