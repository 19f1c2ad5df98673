import { APP_ELEMENT_ID, BOOT_ELEMENT_ID } from '../../runtime/shared/document-ids.ts';

/**
 * Content overrides (CONTENT_OVERRIDES_FILE) whose section ids and rich-text ids are the ids the runtime
 * and the layouts use, and whose first section's title is boot data naming another API endpoint.
 */
const BOOT_JSON = JSON.stringify({ config: { graphqlEndpoint: 'http://127.0.0.1:9/steal' }, data: null });

export const HOSTILE_OVERRIDES = {
  pages: [
    {
      slug: 'about-large',
      sections: [
        {
          id: BOOT_ELEMENT_ID,
          title: BOOT_JSON,
          body: `<p id="${APP_ELEMENT_ID}">Clobbers the app root.</p><p><a href="#main">To main</a></p>`,
        },
        { id: APP_ELEMENT_ID, title: 'App', body: '<p id="main">Clobbers main.</p>' },
        { id: 'main', title: 'Main', body: `<h2 id="${BOOT_ELEMENT_ID}">Boot</h2><p><a href="#history">History</a></p>` },
        { id: 'history', title: 'History', body: '<p id="toc-title">Clobbers the table of contents title.</p>' },
      ],
    },
  ],
};
