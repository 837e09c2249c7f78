import NextLink from 'next/link';
import type { ComponentProps } from 'react';

/**
 * A link to one of the dashboard's pages, not prefetched when it comes into view (Next's default): every
 * page is rendered per request from the database, and with prefetching a page view made the server
 * render the eight pages of the navigation twice over, about 3.3 times the web server's CPU of the view
 * itself (docs/findings/product.md). The page is rendered when the link is followed.
 */
export default function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
