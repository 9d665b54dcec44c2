/** The path and query of an absolute URL, without building a URL object. */
export function pathOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? '/' : url.slice(slash);
}
