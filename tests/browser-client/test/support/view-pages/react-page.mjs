// The React page of view-bindings.test.ts, bundled by esbuild: one client, two components on useSession()
// (a page's status line and, say, its header badge: each must follow the client).
import { createSessauthClient } from '@sessauth/client';
import { useSession } from '@sessauth/client/react';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const client = createSessauthClient();

function Status({ id }) {
  const session = useSession(client);
  return createElement('p', { id }, `${session.status} ${session.sessionId ?? '-'}`);
}

createRoot(document.getElementById('root')).render(
  createElement('div', null, createElement(Status, { id: 'session' }), createElement(Status, { id: 'session-badge' })),
);
window.sessauthClient = client;
