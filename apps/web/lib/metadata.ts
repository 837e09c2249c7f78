import type { Metadata } from 'next';

/** Title, description and link preview (Open Graph, Twitter) of a page with a permanent URL. */
export function pageMetadata(p: { title: string; description: string; url: string; type?: 'article' | 'website' }): Metadata {
  const { title, description, url } = p;
  return {
    title,
    description,
    alternates: { canonical: url },
    openGraph: { title, description, url, type: p.type ?? 'article', siteName: 'spanner-client-bench' },
    twitter: { card: 'summary', title, description },
  };
}
