/** The coverage check in the pilot's job dialog: the open job's figures come with the dashboard's data. */
import { useRouteLoaderData } from '@remix-run/react'

import { CoveragePanel, type CoverageView } from './coverage-panel.tsx'

export function JobCoverage({ tileUrl }: { tileUrl: string }) {
  const data = useRouteLoaderData('routes/dashboard') as
    | { openProjectCoverage?: CoverageView | null }
    | undefined
  const coverage = data?.openProjectCoverage
  return coverage ? (
    <CoveragePanel coverage={coverage} tileUrl={tileUrl} headingId="job-coverage-heading" />
  ) : null
}
