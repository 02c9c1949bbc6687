// What browser and server code alike may import: no compiler, no catalogue.
export * from './format.ts';
export * from './locales.ts';
export * from './translator.ts';
