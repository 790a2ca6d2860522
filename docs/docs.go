// Package docs holds pincer's user documentation and the generators that
// keep its tables in step with the code (see generate.go). What the model
// is told lives with the agent, in agent/prompts.
package docs
