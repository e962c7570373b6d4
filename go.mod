module github.com/workorderdesk/workdesk

go 1.26.0

require (
	github.com/google/uuid v1.6.0
	github.com/shopspring/decimal v1.4.0
	golang.org/x/oauth2 v0.37.0
	golang.org/x/text v0.43.0
)
