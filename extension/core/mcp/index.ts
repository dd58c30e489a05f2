export { loadMcpConfig, parseServerEntry, definitionHash, type McpConfig, type McpConfigOptions } from './config';
export { McpManager, type McpManagerOptions } from './manager';
export { formatMcpServers, type McpServerLister } from './format';
export { mcpToolName, mcpGroup } from './names';
export { McpCache, TOOLS_FILE, CONSENT_FILE } from './cache';
export { resolveServerDef, McpConfigError, type InputResolver } from './variables';
export type { McpServerDef, McpServerStatus, McpServerState, McpSource, McpToolInfo, McpInputDef } from './types';
export { describeServerForConsent, consentView, SECRET_NAME, type ConsentAnswer, type ConsentView } from './consent-text';
