/**
 * Line icons for the landing page (24×24, stroke = currentColor), drawn from one SVG
 * sprite (`icons.svg`, a static asset) so the paths are not shipped as JavaScript.
 */
import sprite from './icons.svg'

export type IconName =
  | 'arrow-down'
  | 'arrow-right'
  | 'calculator'
  | 'calendar'
  | 'card'
  | 'check'
  | 'download'
  | 'drone'
  | 'handshake'
  | 'mail'
  | 'map'
  | 'phone'
  | 'pin'
  | 'polygon'
  | 'report'
  | 'shield'
  | 'tag'
  | 'target'

export function Icon({ name, className = 'h-6 w-6' }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <use href={`${sprite}#${name}`} />
    </svg>
  )
}
