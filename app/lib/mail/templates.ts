/**
 * Branded e-mail bodies: one layout, an HTML and a plain-text rendering of the same
 * content. Every message is built from these pieces so they look alike.
 */
export interface EmailContent {
  preview?: string
  heading: string
  paragraphs: string[]
  /** Label/value rows, e.g. a job card or a receipt. */
  details?: Array<[string, string]>
  action?: { label: string; url: string }
  /** Further links under the action, e.g. the Map view beside the downloads. */
  links?: Array<{ label: string; url: string }>
  /** An image above the details: `src` is `cid:…` for an inline attachment (see EmailMessage.attachments). */
  image?: { src: string; alt: string }
  footnote?: string
  /** Marketing mail only: the unsubscribe link shown in the footer (POPIA s69). */
  unsubscribeUrl?: string
}

function escapeHtml(value: string) {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

export function renderEmail(content: EmailContent): { html: string; text: string } {
  const details = content.details?.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0;font-size:14px">${content.details
        .map(
          ([k, v]) =>
            `<tr><td style="padding:6px 8px;color:#4b638a;border-bottom:1px solid #e6ebf3;width:40%">${escapeHtml(k)}</td><td style="padding:6px 8px;color:#111827;border-bottom:1px solid #e6ebf3">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#f57c0b;color:#111827;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px;display:inline-block">${escapeHtml(content.action.label)}</a></p><p style="font-size:12px;color:#4b638a">Or copy this link: ${escapeHtml(content.action.url)}</p>`
    : ''
  const links = content.links?.length
    ? content.links
        .map(
          (l) =>
            `<p style="margin:0 0 8px"><a href="${escapeHtml(l.url)}" style="color:#b45309;font-weight:600">${escapeHtml(l.label)}</a></p>`,
        )
        .join('')
    : ''
  const image = content.image
    ? `<p style="margin:16px 0"><img src="${escapeHtml(content.image.src)}" alt="${escapeHtml(content.image.alt)}" style="max-width:100%;height:auto;border-radius:8px;border:1px solid #e6ebf3" /></p>`
    : ''
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:-apple-system,Segoe UI,Roboto,Arial,sans-serif">
<div style="display:none">${escapeHtml(content.preview ?? content.heading)}</div>
<table role="presentation" style="width:100%;padding:24px 0"><tr><td align="center">
<table role="presentation" style="max-width:560px;width:100%;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#111827;padding:20px 24px;color:#fcb84d;font-weight:700;font-size:18px;letter-spacing:.08em">KESTREL <span style="color:#ffffff;font-weight:400">AERIAL SURVEY</span></td></tr>
<tr><td style="padding:24px;color:#1c2639;font-size:15px;line-height:1.55">
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((p) => `<p style="margin:0 0 12px">${escapeHtml(p)}</p>`).join('')}
${image}${details}${action}${links}
${content.footnote ? `<p style="font-size:12px;color:#4b638a;margin-top:24px">${escapeHtml(content.footnote)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;background:#f4f6fa;color:#6c83a8;font-size:12px">Kestrel Aerial Survey · Cape Town, South Africa${content.unsubscribeUrl ? ` · <a href="${escapeHtml(content.unsubscribeUrl)}" style="color:#4b638a">Unsubscribe</a>` : ''}</td></tr>
</table></td></tr></table></body></html>`
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.details?.map(([k, v]) => `${k}: ${v}`) ?? []),
    ...(content.details?.length ? [''] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.links?.length ? [...content.links.map((l) => `${l.label}: ${l.url}`), ''] : []),
    ...(content.footnote ? [content.footnote, ''] : []),
    '-- ',
    'Kestrel Aerial Survey · Cape Town, South Africa',
    ...(content.unsubscribeUrl ? [`Unsubscribe: ${content.unsubscribeUrl}`] : []),
  ].join('\n')
  return { html, text }
}
