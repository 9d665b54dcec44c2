// The Vue page of view-bindings.test.ts, bundled by esbuild: one client, two components on useSession()
// (a page's status line and, say, its header badge: each must follow the client).
import { createSessauthClient } from '@sessauth/client';
import { useSession } from '@sessauth/client/vue';
import { createApp, h } from 'vue';

const client = createSessauthClient();

const Status = {
  props: { id: { type: String, required: true } },
  setup(props) {
    // biome-ignore lint/correctness/useHookAtTopLevel: a Vue composable in setup(), not a React hook
    const { status, sessionId } = useSession(client);
    return () => h('p', { id: props.id }, `${status.value} ${sessionId.value ?? '-'}`);
  },
};

createApp({
  render: () => h('div', [h(Status, { id: 'session' }), h(Status, { id: 'session-badge' })]),
}).mount('#root');
window.sessauthClient = client;
