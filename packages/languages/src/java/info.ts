import { versionRefusal, type LanguageInfo } from '@scb/shared/language-info';

/** The first google-cloud-spanner with DecodeMode (java-spanner PR #2847): SpannerOptions.Builder.setDecodeMode. */
export const JAVA_DECODE_MODE_SINCE = '6.59.0';

/** What the spec, forms and pages know of the Java client (registered by ../info.ts). */
export const javaInfo = {
  name: 'java',
  title: 'Java',
  packageName: 'com.google.cloud:google-cloud-spanner',
  exampleVersion: '6.105.0',
  cellSeconds: 5,
  poolInUse: 'in_use',
  refuse: (c, context) =>
    versionRefusal(
      'decodeMode',
      c.decodeMode !== undefined,
      'java',
      context?.version,
      JAVA_DECODE_MODE_SINCE,
      `DecodeMode came in google-cloud-spanner ${JAVA_DECODE_MODE_SINCE} (java-spanner PR #2847)`,
    ),
  refuseForeign: (c, language) =>
    c.decodeMode !== undefined ? { option: 'decodeMode', message: `is a java client option (DecodeMode, google-cloud-spanner ${JAVA_DECODE_MODE_SINCE} on); the ${language} client has none` } : null,
  hints: {
    configurations: 'The dynamic channel pool (enableDynamicChannelPool) only applies when numChannels is unset.',
    numChannels: 'SpannerOptions numChannels.',
  },
} satisfies LanguageInfo;
