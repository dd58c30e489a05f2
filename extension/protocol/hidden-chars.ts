/** The hidden-character list and its escaper, for the webview (which reaches extension/ only through protocol/). */
export * from '../core/text/hidden-chars';
