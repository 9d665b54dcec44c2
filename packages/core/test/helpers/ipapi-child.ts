// Run in a child process whose NODE_EXTRA_CA_CERTS trusts the test's server: the
// provider then uses Node's own global fetch, as in production. Prints one JSON line.
import { createIpapiProvider } from '../../src/geo/ipapi-provider.js';

const provider = createIpapiProvider({ thirdPartyConsent: true, baseUrl: process.env.IPAPI_BASE_URL! });
try {
  const location = await provider(process.env.LOOKUP_IP!, new AbortController().signal);
  console.log(JSON.stringify({ location }));
} catch (error) {
  console.log(JSON.stringify({ error: (error as Error).message }));
}
