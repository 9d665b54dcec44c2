// The Vue page of view-bindings.test.ts, bundled by esbuild: one client, one component on useSession().
import { createSessauthClient } from '@sessauth/client';
import { useSession } from '@sessauth/client/vue';
import { createApp, h } from 'vue';

const client = createSessauthClient();

createApp({
  setup() {
    // biome-ignore lint/correctness/useHookAtTopLevel: a Vue composable in setup(), not a React hook
    const { status, sessionId } = useSession(client);
    return () => h('p', { id: 'session' }, `${status.value} ${sessionId.value ?? '-'}`);
  },
}).mount('#root');
window.sessauthClient = client;
