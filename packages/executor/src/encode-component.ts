const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;
const SUB_DELIMS_LEFT_BY_ENCODE_URI_COMPONENT = /[!'()*]/g;

/**
 * Percent-encodes `value` RFC 3986-strictly: only the unreserved characters
 * (`A-Z a-z 0-9 - . _ ~`) stay as they are; every other byte of its UTF-8 form is
 * encoded, `!'()*` included. The value must hold no lone surrogate.
 */
export function encodeComponent(value: string): string {
  if (UNRESERVED_ONLY.test(value)) return value;
  return encodeURIComponent(value).replace(SUB_DELIMS_LEFT_BY_ENCODE_URI_COMPONENT, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}
