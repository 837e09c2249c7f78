// Types of plugins.mjs (plain JavaScript, for the web server).
export declare const PLUGINS_VARIABLE: 'SCB_PLUGINS';
export declare function pluginPaths(value: string | undefined): { ok: true; paths: string[] } | { ok: false; error: string };
export declare function loadPlugins(value: string | undefined): Promise<Record<string, unknown>[]>;
