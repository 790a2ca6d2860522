package memory

import (
	"testing"

	"pincer/e2e/e2etest"
)

func TestMain(m *testing.M) { e2etest.Main(m) }
