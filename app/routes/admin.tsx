// /admin shows the same role dashboard as /dashboard (spec route table).
export { action, default, ErrorBoundary, loader, meta } from './dashboard.tsx'
