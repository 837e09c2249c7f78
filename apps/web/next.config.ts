import type { NextConfig } from 'next';

const config: NextConfig = {
  transpilePackages: ['@scb/shared', '@scb/db'],
  serverExternalPackages: ['@prisma/client', '@prisma/adapter-pg', 'pg', 'graphile-worker'],
  poweredByHeader: false,
};

export default config;
