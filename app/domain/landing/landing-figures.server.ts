/**
 * The landing page's figures (About Us and the gallery's tags), formatted here so the page
 * ships no number formatter (its JavaScript budget).
 */
import { formatHectares, formatNumber, formatPercent } from '#app/lib/format/numbers.ts'

export function landingFigures() {
  return {
    mainStats: [
      { value: '5+', label: 'Years of experience' },
      { value: `${formatNumber(1000)}+`, label: 'Flights completed' },
      { value: '50+', label: 'Happy clients' },
    ],
    moreStats: [
      { value: '500+', label: 'Projects delivered' },
      { value: formatPercent(99.9, 1), label: 'Data accuracy' },
      { value: '24/7', label: 'Support' },
    ],
    /** The gallery's tags, in its order: agriculture, coastal, infrastructure. */
    galleryTags: [
      ['NDVI', 'Orthomosaic', formatHectares(426_000, 1)],
      [`${formatNumber(2.1, 1)}\u00a0cm GSD`, 'Topography', formatHectares(54_000, 1)],
      ['Inspection', '3D model', 'Measurements'],
    ],
  }
}

export type LandingFigures = ReturnType<typeof landingFigures>
