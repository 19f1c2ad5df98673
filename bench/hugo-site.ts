import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A Hugo site equivalent to our synthetic site of `pages` pages: the same sections in the same
 * proportions, bodies of the same size, a base template with header, navigation and footer, list
 * and single templates. Hugo also writes its sitemap and RSS by default, as our build does.
 */
export async function writeHugoSite(dir: string, pages: number): Promise<void> {
  const sections: [string, number][] = [
    ['news', 0.7],
    ['events', 0.12],
    ['publications', 0.12],
    ['research', 0.06],
  ];
  await mkdir(join(dir, 'layouts/_default'), { recursive: true });
  await writeFile(
    join(dir, 'hugo.toml'),
    'baseURL = "https://institute.example/"\ntitle = "Northlight Institute"\ndisableKinds = ["taxonomy", "term"]\n[pagination]\npagerSize = 24\n',
  );
  await writeFile(join(dir, 'layouts/_default/baseof.html'), BASEOF);
  await writeFile(join(dir, 'layouts/_default/single.html'), SINGLE);
  await writeFile(join(dir, 'layouts/_default/list.html'), LIST);
  await writeFile(join(dir, 'layouts/index.html'), LIST);
  let n = 0;
  for (const [section, share] of sections) {
    const count = Math.round(pages * share);
    await mkdir(join(dir, 'content', section), { recursive: true });
    await writeFile(join(dir, 'content', section, '_index.md'), `---\ntitle: "${section}"\n---\n`);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < count; i++, n++) writes.push(writeFile(join(dir, 'content', section, `item-${i}.md`), page(section, i, n)));
    await Promise.all(writes);
  }
}

// --- internal ---

const WORDS =
  'institute research art media technology archive residency sound image network study practice public lecture exhibition'.split(' ');

function page(section: string, i: number, n: number): string {
  const date = new Date(Date.UTC(2020, 0, 1) + n * 3_600_000).toISOString();
  const sentence = (k: number): string => Array.from({ length: 14 }, (_, j) => WORDS[(k * 7 + j * 3) % WORDS.length]).join(' ') + '.';
  const paragraphs = Array.from({ length: 6 }, (_, p) => Array.from({ length: 3 }, (_, s) => sentence(n + p * 3 + s)).join(' ')).join(
    '\n\n',
  );
  return `---\ntitle: "${section} item ${i}"\ndate: ${date}\nsummary: "${sentence(n)}"\ntags: ["${WORDS[n % WORDS.length]}"]\n---\n\n## Overview\n\n${paragraphs}\n`;
}

const BASEOF = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ .Title }} | {{ .Site.Title }}</title><meta name="description" content="{{ .Summary | plainify }}"><link rel="canonical" href="{{ .Permalink }}"><meta property="og:title" content="{{ .Title }}"><link rel="stylesheet" href="/site.css"></head><body><a href="#main">Skip to content</a><header><a href="/">{{ .Site.Title }}</a><nav><a href="/news/">News</a> <a href="/events/">Events</a> <a href="/publications/">Publications</a> <a href="/research/">Research</a></nav></header><main id="main">{{ block "main" . }}{{ end }}</main><footer><p>Northlight Institute, Harbour Street 1</p></footer></body></html>`;
const SINGLE = `{{ define "main" }}<article><h1>{{ .Title }}</h1><p><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time></p>{{ .Content }}<p>{{ range .Params.tags }}<span>{{ . }}</span> {{ end }}</p></article>{{ end }}`;
const LIST = `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date.Format "2 Jan 2006" }}</time><p>{{ .Summary | plainify }}</p></li>{{ end }}</ul>{{ with .Paginator.Next }}<a href="{{ .URL }}">Next</a>{{ end }}{{ end }}`;
