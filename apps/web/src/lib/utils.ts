import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names. There is no conflict resolution (tailwind-merge would add about 13 KB to the first
 * page): a component never receives a class that fights one of its own; it offers a prop instead (e.g.
 * the `size` of Button and DialogContent).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
