// The React page of view-bindings.test.ts, bundled by esbuild: one client, one component on useSession().
import { createSessauthClient } from '@sessauth/client';
import { useSession } from '@sessauth/client/react';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const client = createSessauthClient();

function Status() {
  const session = useSession(client);
  return createElement('p', { id: 'session' }, `${session.status} ${session.sessionId ?? '-'}`);
}

createRoot(document.getElementById('root')).render(createElement(Status));
window.sessauthClient = client;
