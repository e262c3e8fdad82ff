/** De-duplicates file names inside one archive: `a.png`, `a (2).png`, `a (3).png`… (case-insensitive). */
export class ArchiveNames {
  private readonly taken = new Set<string>();
  private readonly folders = new Map<string, ArchiveNames>();

  /** `folder/name`, the name de-duplicated among that folder's entries alone. */
  nextIn(folder: string, name: string): string {
    let names = this.folders.get(folder);
    if (!names) this.folders.set(folder, (names = new ArchiveNames()));
    return `${folder}/${names.next(name)}`;
  }

  next(name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
