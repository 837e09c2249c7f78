import type { Metadata } from 'next';
import Link from 'next/link';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'spanner-client-bench', template: '%s · spanner-client-bench' },
  description: 'Benchmarks of Cloud Spanner clients across versions and configurations.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="top">
          <Link href="/" className="brand">
            spanner-client-bench
          </Link>
          <nav>
            <Link href="/">Jobs</Link>
            <Link href="/jobs/new">New job</Link>
            <Link href="/compare">Compare</Link>
            <Link href="/versions">Across versions</Link>
            <Link href="/gates">Gates</Link>
            <Link href="/runners">Runners</Link>
            <Link href="/settings">Settings</Link>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
