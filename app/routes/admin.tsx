// /admin shows the same role dashboard as /dashboard.
export { action, default, ErrorBoundary, loader, meta } from './dashboard.tsx'
