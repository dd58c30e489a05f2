import { promises as dns } from 'node:dns';
import type { Resolver } from './url-policy';

/** The operating system's resolver (getaddrinfo, as the browser itself would use), every address it gives. */
export const systemResolver: Resolver = async (host) => {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};
