import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** Renders a page. Preact escapes every text and attribute value by default. */
export function renderPage(vnode: VNode<any>): string {
  return `<!doctype html>${renderToString(vnode)}`;
}

/**
 * JSON for a <script type="application/ld+json"> block: "<" is escaped so catalog text
 * can never close the script element. Data blocks are not executed, so CSP allows them.
 */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
