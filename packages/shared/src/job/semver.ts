// Order of published client versions.

const SEMVER_PARTS = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1; // a release is newer than its prereleases
  if (b === undefined) return -1;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1; // fewer identifiers: older
    if (y[i] === undefined) return 1;
    const xn = /^\d+$/.test(x[i]);
    const yn = /^\d+$/.test(y[i]);
    if (xn && yn) {
      const d = Number(x[i]) - Number(y[i]);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) {
      return xn ? -1 : 1; // numeric identifiers sort before alphanumeric ones
    } else if (x[i] !== y[i]) {
      return x[i] < y[i] ? -1 : 1;
    }
  }
  return 0;
}

/**
 * Semver precedence, oldest first: numbers compare as numbers (6.9.0 < 6.10.0 < 6.104.0), a
 * prerelease comes before its release. Strings that are not semver sort after all semver ones.
 */
export function compareSemver(a: string, b: string): number {
  const x = SEMVER_PARTS.exec(a);
  const y = SEMVER_PARTS.exec(b);
  if (!x || !y) {
    if (x) return -1;
    if (y) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return Math.sign(d);
  }
  return comparePrerelease(x[4], y[4]);
}

/** Distinct versions, oldest first. */
export function oldestFirst(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort(compareSemver);
}
