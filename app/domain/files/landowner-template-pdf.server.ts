/**
 * The land owner permission template ("Annexure G"), served at
 * /landowner-permission-template.pdf: a branded A4 form the client prints, has the land
 * owner sign and uploads back. Drawn with pdf-lib from the company configuration, so the
 * operator name and ROC number are always current.
 */
import type { getCompanyInfo } from '#app/lib/config/env.server.ts'
import { A4, createA4Document, PDF_COLOURS, wrap } from '#app/lib/pdf/a4-document.server.ts'
import { rgb } from 'pdf-lib'

type CompanyInfo = ReturnType<typeof getCompanyInfo>

const { ink: INK, muted: MUTED, amber: AMBER, white: WHITE } = PDF_COLOURS
const LINE = rgb(0.75, 0.78, 0.84)

const LANDOWNER_TEMPLATE_TITLE = 'Annexure G: Land Owner Permission for Drone Operations'

export async function renderLandownerTemplatePdf(company: CompanyInfo): Promise<Uint8Array> {
  const { pdf, page, regular, bold, text } = await createA4Document({
    title: LANDOWNER_TEMPLATE_TITLE,
    author: company.legalName,
    subject: 'Permission to fly a remotely piloted aircraft over private property',
    // A fixed date: the template's bytes change only when the company details do.
    createdAt: new Date(Date.UTC(2026, 0, 1)),
  })
  const left = 50
  const right = 545
  let y = 790

  // Header band: brand, document title, operator.
  page.drawRectangle({ x: 0, y: 770, width: A4.width, height: 71.89, color: INK })
  page.drawRectangle({ x: 0, y: 766, width: A4.width, height: 4, color: AMBER })
  text(page, 'KESTREL', left, 808, { size: 20, font: bold, color: WHITE })
  text(page, 'AERIAL SURVEY', left, 792, { size: 9, font: bold, color: AMBER })
  text(page, company.legalName, 300, 810, { size: 9, color: rgb(0.85, 0.87, 0.9) })
  text(page, `${company.phone} | ${company.email}`, 300, 797, { size: 9, color: rgb(0.85, 0.87, 0.9) })
  text(page, `Reg. ${company.registrationNumber}`, 300, 784, { size: 9, color: rgb(0.85, 0.87, 0.9) })

  y = 735
  text(page, 'ANNEXURE G', left, y, { size: 10, font: bold, color: AMBER })
  y -= 20
  text(page, 'Land Owner Permission for Drone Operations', left, y, { size: 17, font: bold })
  y -= 22
  const intro =
    'I, the owner (or authorised representative of the owner) of the property described below, give permission for a ' +
    'remotely piloted aircraft (drone) to take off from, land on and fly over this property to carry out the aerial ' +
    'survey described here, in line with Part 101 of the South African Civil Aviation Regulations.'
  for (const line of wrap(intro, regular, 10, right - left)) {
    text(page, line, left, y, { color: MUTED })
    y -= 14
  }

  const field = (label: string, x: number, width: number) => {
    text(page, label, x, y, { size: 8, font: bold, color: MUTED })
    page.drawLine({ start: { x, y: y - 20 }, end: { x: x + width, y: y - 20 }, thickness: 0.8, color: LINE })
  }
  const section = (title: string) => {
    y -= 14
    text(page, title.toUpperCase(), left, y, { size: 9, font: bold, color: AMBER })
    page.drawLine({ start: { x: left, y: y - 5 }, end: { x: right, y: y - 5 }, thickness: 0.5, color: AMBER })
    y -= 24
  }
  const half = (right - left - 20) / 2

  section('1. Land owner')
  field('Full name of land owner / company', left, half)
  field('ID or company registration number', left + half + 20, half)
  y -= 40
  field('Telephone', left, half)
  field('E-mail', left + half + 20, half)
  y -= 40

  section('2. Property')
  field('Property description (erf number or farm name and number)', left, right - left)
  y -= 40
  field('Physical address / nearest town', left, half)
  field('Title deed number (if known)', left + half + 20, half)
  y -= 40

  section('3. Survey')
  field('Project name / reference', left, half)
  field('Survey dates (from - to)', left + half + 20, half)
  y -= 40
  field('Conditions (access gates, livestock, no-fly areas on the property)', left, right - left)
  y -= 44

  section('4. Operator')
  text(page, `Operator: ${company.operatorName}`, left, y, { size: 10, font: bold })
  text(page, `ROC number: ${company.operatorRocNumber}`, left + half + 20, y, { size: 10, font: bold })
  y -= 14
  text(page, `On behalf of ${company.legalName}, ${company.address}`, left, y, { size: 9, color: MUTED })
  y -= 26

  section('5. Signatures')
  field('Land owner signature', left, half)
  field('Date', left + half + 20, 90)
  field('Place', left + half + 130, half - 110)
  y -= 44
  field('Witness signature', left, half)
  field('Witness full name', left + half + 20, half)
  y -= 44
  field('For the operator (signature and name)', left, half)
  field('Date', left + half + 20, half)

  const foot =
    'Return the signed form by uploading it on your project page. The permission applies to the survey dates above and ' +
    'may be withdrawn in writing at any time before the flight.'
  let fy = 58
  for (const line of wrap(foot, regular, 8, right - left)) {
    text(page, line, left, fy, { size: 8, color: MUTED })
    fy -= 11
  }
  return pdf.save()
}
