/**
 * The Map view's addresses for a GIS: the signed-in WMTS and XYZ tiles of the survey's maps. A
 * desktop GIS sends the API session as a header; a share link's addresses carry their own key.
 */
import { Link } from '@remix-run/react'
import { GisAddresses } from '#app/components/sharing/gis-addresses.tsx'
import { CardSection } from '#app/components/ui/section-header.tsx'
import type { GisLinks } from '#app/domain/sharing/gis-links.ts'

export function GisSection({ projectId, gis }: { projectId: number; gis: GisLinks }) {
  return (
    <CardSection
      id="gis-heading"
      title="These maps in your GIS"
      description={
        <>
          Read with your sign-in: in the QGIS connection&apos;s HTTP headers, add <code>x-session-id</code>{' '}
          with the <code>sessionId</code> that <code>POST /api/auth/login</code> answers. For a colleague, or
          without headers, a{' '}
          <Link to={`/projects/${projectId}/share`} className="link">
            share link
          </Link>
          &apos;s addresses carry their own key.
        </>
      }
      testId="map-gis"
    >
      <GisAddresses gis={gis} idPrefix="map" />
    </CardSection>
  )
}
