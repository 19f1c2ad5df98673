/** Element ids shared by the HTML the build writes and the runtime that reads it. */
export const APP_ELEMENT_ID = 'app';
export const BOOT_ELEMENT_ID = '__BOOT__';
