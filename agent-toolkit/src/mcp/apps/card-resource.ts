import type { ReadResourceResult } from '@modelcontextprotocol/server';
import APPROVAL_CARD_HTML from 'virtual:cardrail/approval-card.html';
import { APP_HTML_MIME_TYPE, APPROVAL_CARD_URI } from './ui-extension.js';

/**
 * The approval card as its UI resource (`resources/read` of `ui://cardrail/approval-card`): one HTML document that
 * reaches nothing but its host (no `csp` domains: the host's restrictive default, `connect-src 'none'`), drawn with
 * the host's border.
 */
export function approvalCardResource(): ReadResourceResult {
  return {
    contents: [
      {
        uri: APPROVAL_CARD_URI,
        mimeType: APP_HTML_MIME_TYPE,
        text: APPROVAL_CARD_HTML,
        _meta: { ui: { prefersBorder: true } },
      },
    ],
  };
}
