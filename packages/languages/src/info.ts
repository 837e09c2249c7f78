// The built-in client languages' entries (LanguageInfo), each from its folder, registered in @scb/shared's
// registry. Safe for the browser: the launch form's lists come from here. @scb/shared imports this module
// (job/languages.ts), so anything that reads the registry finds the built-ins registered.
import { registerLanguage } from '@scb/shared/registry';
import { goInfo } from './go/info';
import { javaInfo } from './java/info';
import { nodeInfo } from './node/info';
import { pythonInfo } from './python/info';

/** The built-in languages' entries, in the order the lists show them. */
export const BUILTIN_LANGUAGES = [nodeInfo, javaInfo, goInfo, pythonInfo];

for (const info of BUILTIN_LANGUAGES) registerLanguage(info);
