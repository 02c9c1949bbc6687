import type { Config } from '@react-router/dev/config';

export default {
  ssr: true,
  appDirectory: 'app',
  // WEB_BUILD_OUT lets parallel test runs build side by side (served with WEB_BUILD_DIR).
  buildDirectory: process.env.WEB_BUILD_OUT ?? 'build',
} satisfies Config;
