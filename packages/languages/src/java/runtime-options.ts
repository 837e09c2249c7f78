// The JVM options an operator may give every Java driver (SCB_JAVA_DRIVER_OPTIONS, launch/runtime-options.ts):
// the collector, the JIT's tiers and threads, heap and stack sizes; nothing that names a file or a command.
import type { RuntimeOptionsRule } from '../plugin';

export const JAVA_RUNTIME_OPTIONS: RuntimeOptionsRule = {
  variable: 'SCB_JAVA_DRIVER_OPTIONS',
  allowed: [
    /-XX:[+-](UseSerialGC|UseParallelGC|UseG1GC|UseZGC|UseShenandoahGC|TieredCompilation|UseCompressedOops|AlwaysPreTouch|UseStringDeduplication|UseDynamicNumberOfCompilerThreads)/,
    /-XX:(TieredStopAtLevel|CICompilerCount|ParallelGCThreads|ConcGCThreads|MaxGCPauseMillis|ActiveProcessorCount)=\d{1,6}/,
    /-Xm[snx]\d{1,6}[kmgKMG]?/,
    /-Xss\d{1,6}[kmgKMG]?/,
  ],
  allowedText: '-XX:±UseSerialGC and the other collectors, -XX:TieredStopAtLevel=N, -XX:CICompilerCount=N, GC thread counts, -Xms/-Xmx/-Xmn/-Xss sizes',
};
