import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createChatActions } from './app/actions';
import { App } from './App';
import { ChatContext } from './app/context';
import { createBridge } from './bridge/vscode-api';
import { restoreState } from './state/initial';
import { persistState } from './state/persist';
import { chatReducer } from './state/reducer';
import { createStore } from './state/store';
import './styles/base.css';

/** Boot: restore saved UI state, listen to the host, render, then tell the host we are ready. */
const bridge = createBridge(acquireVsCodeApi());
const store = createStore(chatReducer, restoreState(bridge.getState()));
persistState(store, (state) => bridge.setState(state));
const actions = createChatActions(store, bridge);
bridge.onMessage((msg) => {
  store.dispatch({ type: 'host', msg, at: Date.now() });
  if (msg.type === 'composer.attach') actions.attachPicked(msg);
});

const root = document.getElementById('root');
if (!root) throw new Error('Snowpea: #root is missing from the webview HTML');
createRoot(root).render(
  <StrictMode>
    <ChatContext.Provider value={{ store, actions }}>
      <App />
    </ChatContext.Provider>
  </StrictMode>,
);
bridge.post({ type: 'ready' });
