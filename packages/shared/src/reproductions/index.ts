// Every reproduction; adding one is adding an entry file and listing it here.
import { FIELD_STORIES } from './entries/field-stories';
import type { Reproduction } from './reproduction';

export * from './reproduction';

export const REPRODUCTIONS: Reproduction[] = [...FIELD_STORIES];

export function reproduction(id: string): Reproduction | undefined {
  return REPRODUCTIONS.find((r) => r.id === id);
}
