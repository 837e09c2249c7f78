// A preset: a named job spec the launch form and the API offer (presets.ts and result-set-presets.ts list them).
import type { JobSpecInput } from './spec';

export interface Preset {
  id: string;
  title: string;
  description: string;
  spec: JobSpecInput;
}
