/**
 * `/landowner-permission-template.pdf` — the land owner permission form (Annexure G) to
 * print, sign and upload. Public (the planner and project pages link it); drawn from the
 * company configuration on each start and kept in memory.
 */
import { renderLandownerTemplatePdf } from '#app/domain/files/landowner-template-pdf.server.ts'
import { getCompanyInfo } from '#app/lib/config/env.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { pdfResponse } from '#app/lib/pdf/pdf-response.server.ts'

let cached: Promise<Uint8Array> | undefined

export const { loader, action } = resourceRoute({
  GET: async () => {
    cached ??= renderLandownerTemplatePdf(getCompanyInfo())
    const bytes = await cached
    return pdfResponse(bytes, 'landowner-permission-template.pdf', {
      disposition: 'inline',
      cacheControl: 'public, max-age=3600',
    })
  },
})
