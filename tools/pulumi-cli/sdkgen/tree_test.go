package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A removed resource's file must disappear from sdk/, and go.mod / go.sum (go mod tidy's) must stay.
func TestWriteRemovesWhatIsNoLongerGeneratedAndKeepsGoModule(t *testing.T) {
	out := t.TempDir()
	kept := map[string]bool{"go/neon/go.mod": true, "go/neon/go.sum": true}
	for name, content := range map[string]string{
		"nodejs/old.ts":    "a resource since removed",
		"nodejs/role.ts":   "stale",
		"go/neon/go.mod":   "module x",
		"go/neon/go.sum":   "sums",
		"python/gone/x.py": "a module since removed",
	} {
		writeFile(t, filepath.Join(out, name), content)
	}
	files := map[string][]byte{"nodejs/role.ts": []byte("new"), "go/neon/role.go": []byte("package neon")}

	diffs, err := compare(out, files, kept)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(out, "go/neon/role.go") + ": missing",
		filepath.Join(out, "nodejs/role.ts") + ": out of date",
		filepath.Join(out, "nodejs/old.ts") + ": no longer generated",
		filepath.Join(out, "python/gone/x.py") + ": no longer generated",
	}
	if !reflect.DeepEqual(diffs, want) {
		t.Fatalf("compare: got %q, want %q", diffs, want)
	}

	if _, err := write(out, files, kept); err != nil {
		t.Fatal(err)
	}
	if diffs, _ := compare(out, files, kept); len(diffs) != 0 {
		t.Fatalf("after write: %q", diffs)
	}
	for _, name := range []string{"go/neon/go.mod", "go/neon/go.sum"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "python", "gone")); !os.IsNotExist(err) {
		t.Errorf("python/gone stays: %v", err)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
