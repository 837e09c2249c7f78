// A configuration (a labelled set of client options) in words: pages, tables and the trend chart
// all describe one the same way.

const optionTexts = new WeakMap<object, string>();

/**
 * Options beyond the label, in a stable (alphabetical) order, e.g. "grpcGcp=on, numChannels=32".
 * Options that are not set or say 'default' (the client version's default) are left out, unless
 * `keepDefault`: where an explicit 'default' overrides another layer (a gate arm's options).
 */
export function optionText(config: Record<string, unknown> | null | undefined, opts: { keepDefault?: boolean } = {}): string {
  if (!config) return '';
  if (opts.keepDefault) return optionTextOf(config, true);
  let text = optionTexts.get(config);
  if (text === undefined) optionTexts.set(config, (text = optionTextOf(config, false)));
  return text;
}

function optionTextOf(config: Record<string, unknown>, keepDefault: boolean): string {
  return Object.keys(config)
    .filter((k) => k !== 'label' && config[k] !== undefined && (keepDefault || config[k] !== 'default'))
    .sort()
    .map((k) => `${k}=${typeof config[k] === 'object' ? JSON.stringify(config[k]) : String(config[k])}`)
    .join(', ');
}

/** "grpc-gcp on (grpcGcp=on, numChannels=32)", or just the label when it sets no option. */
export function describeConfiguration(config: { label: string; [option: string]: unknown }): string {
  const options = optionText(config);
  return options ? `${config.label} (${options})` : config.label;
}
