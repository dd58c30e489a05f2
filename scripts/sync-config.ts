// Writes package.json's contributes.configuration from the settings schema (the one source of truth).
// Run: npx tsx scripts/sync-config.ts   (a unit test fails when the manifest is out of date)
import * as fs from 'node:fs';
import { configurationProperties, restrictedConfigurations } from '../extension/core/settings/contributes';

const file = new URL('../package.json', import.meta.url);
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
pkg.contributes.configuration = { title: 'Snowpea', properties: configurationProperties() };
pkg.capabilities.untrustedWorkspaces.restrictedConfigurations = restrictedConfigurations();
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
console.log(`wrote ${Object.keys(pkg.contributes.configuration.properties).length} settings to package.json`);
