/** "a" or "an" before a kind or format name in a message (`${article(kind)} ${kind} file`): the names we print start with a vowel sound exactly when they start with a vowel. */
export function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
