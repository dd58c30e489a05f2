// The fake VS Code host, injected into the test page (with the CSP nonce) before the webview
// bundle. It provides acquireVsCodeApi() as VS Code does: postMessage records what the webview
// sends, getState/setState keep the saved UI state. Tests read window.__fakeHost and deliver
// host messages with window.postMessage, which is how VS Code delivers them too.
function installFakeHost(config) {
  const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));
  const host = {
    posted: [],
    state: clone(config.initialState),
    stateWrites: 0,
    acquired: 0,
    dispatch(msg) {
      window.postMessage(msg, '*');
    },
  };
  window.__fakeHost = host;
  window.acquireVsCodeApi = function acquireVsCodeApi() {
    host.acquired++;
    if (host.acquired > 1) throw new Error('An instance of the VS Code API has already been acquired');
    return Object.freeze({
      postMessage(msg) {
        host.posted.push(clone(msg));
      },
      getState() {
        return clone(host.state);
      },
      setState(state) {
        host.state = clone(state);
        host.stateWrites++;
        return state;
      },
    });
  };
}
