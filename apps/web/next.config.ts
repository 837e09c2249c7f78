import type { NextConfig } from 'next';

const config: NextConfig = {
  transpilePackages: ['@scb/shared', '@scb/db', '@scb/languages'],
  serverExternalPackages: ['@prisma/client', '@prisma/adapter-pg', 'pg', 'graphile-worker'],
  poweredByHeader: false,
};

export default config;
