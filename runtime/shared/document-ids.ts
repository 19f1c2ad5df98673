/** Element ids shared by the HTML the build writes and the runtime that reads it. */
export const APP_ELEMENT_ID = 'app';
export const BOOT_ELEMENT_ID = '__BOOT__';

/** The boot data's opening tag as the build writes it (cli/render/render.tsx) and the content checks find it. */
export const BOOT_SCRIPT_OPEN = `<script type="application/json" id="${BOOT_ELEMENT_ID}">`;

/**
 * How the runtime finds the boot data: the JSON script element with that id, never any element that
 * has it. Content cannot write a script element (rich text is cleaned) and its ids are content ids
 * (content-ids.ts contentId), so nothing a page's content holds can stand in for it.
 */
export const BOOT_SELECTOR = `script[type="application/json"][id="${BOOT_ELEMENT_ID}"]`;
