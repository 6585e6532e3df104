package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// languageDirs are the folders of sdk/ that this program owns: everything in them is generated, but kept files.
var languageDirs = []string{"nodejs", "go", "python"}

// onDisk lists the files under out's language folders, by their slash path under out, but the kept ones.
func onDisk(out string, kept map[string]bool) (map[string]bool, error) {
	found := map[string]bool{}
	for _, dir := range languageDirs {
		err := filepath.WalkDir(filepath.Join(out, dir), func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(out, p)
			if err == nil && !kept[filepath.ToSlash(rel)] {
				found[filepath.ToSlash(rel)] = true
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return found, nil
}

// compare names each file that differs from what was generated: out of date, missing, or no longer generated.
func compare(out string, files map[string][]byte, kept map[string]bool) ([]string, error) {
	existing, err := onDisk(out, kept)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for _, name := range sortedKeys(files) {
		content, err := os.ReadFile(filepath.Join(out, name))
		switch {
		case err != nil:
			diffs = append(diffs, filepath.Join(out, name)+": missing")
		case !bytes.Equal(content, files[name]):
			diffs = append(diffs, filepath.Join(out, name)+": out of date")
		}
	}
	for _, name := range sortedKeys(existing) {
		if _, ok := files[name]; !ok {
			diffs = append(diffs, filepath.Join(out, name)+": no longer generated")
		}
	}
	return diffs, nil
}

// write makes out's language folders hold exactly the generated files (and the kept ones), and says what it changed.
func write(out string, files map[string][]byte, kept map[string]bool) ([]string, error) {
	existing, err := onDisk(out, kept)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, name := range sortedKeys(existing) {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(out, name)); err != nil {
				return changed, err
			}
			changed = append(changed, "removed "+filepath.Join(out, name))
		}
	}
	for _, name := range sortedKeys(files) {
		target := filepath.Join(out, name)
		if content, err := os.ReadFile(target); err == nil && bytes.Equal(content, files[name]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return changed, err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return changed, err
		}
		changed = append(changed, "wrote "+target)
	}
	for _, dir := range languageDirs {
		removeEmptyDirs(filepath.Join(out, dir))
	}
	return changed, nil
}

// removeEmptyDirs removes the folders under root that a removed file left empty (root itself stays).
func removeEmptyDirs(root string) {
	var dirs []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != root {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // fails, as it should, on a folder that still holds something
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
