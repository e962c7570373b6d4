package sandbox

import "github.com/workorderdesk/workdesk/api"

// The demo world's fixed ingredients: customers, their sites and price
// lists, and what goes wrong in buildings. Names and addresses are made up
// but shaped like real ones.

type siteDef struct {
	name, street, city, state, country, postal string
	contact, contactAt, phone, email           string
}

type priceDef struct {
	typ      api.LineItemType
	desc     string
	unit     string
	rate     string
	readOnly bool
}

type customerDef struct {
	id                                     int64
	name, desk, prefix, currency, kind     string
	branch                                 int64
	quotes, blockOverNte, backdating, free bool
	sites                                  []siteDef
	prices                                 []priceDef
}

var customerDefs = []customerDef{
	{
		id: 4101, name: "Northwind Retail", desk: "Northwind Retail Facilities Desk", prefix: "NWR", currency: "USD", kind: "retail",
		branch: 492042, quotes: true, blockOverNte: true, backdating: true, free: true,
		sites: []siteDef{
			{"Northwind #0142 Cedar Rapids", "4820 Edgewood Rd NE", "Cedar Rapids", "IA", "US", "52411", "Dana Whitfield", "Store manager, ask at customer service", "+1 319-555-0142", "store0142@northwind-retail.example"},
			{"Northwind #0317 Naperville", "1936 W Ogden Ave", "Naperville", "IL", "US", "60540", "Marcus Bell", "Store manager", "+1 630-555-0317", "store0317@northwind-retail.example"},
			{"Northwind #0588 Plano", "3401 Dallas Pkwy", "Plano", "TX", "US", "75093", "Priya Raman", "Assistant manager (mornings)", "+1 972-555-0588", "store0588@northwind-retail.example"},
			{"Northwind DC Joliet", "2200 Channahon Rd", "Joliet", "IL", "US", "60436", "Tom Kowalski", "Distribution center, dock office", "+1 815-555-0120", "dc-joliet@northwind-retail.example"},
		},
		prices: []priceDef{
			{api.LineLabor, "Technician labour, standard rate", "hour", "95.00", false},
			{api.LineLabor, "Technician labour, after hours", "hour", "142.50", false},
			{api.LineLabor, "Helper labour", "hour", "65.00", false},
			{api.LineTravel, "Trip charge", "visit", "85.00", true},
			{api.LineMaterial, "Refrigerant R-404A", "lb", "38.00", false},
			{api.LineMaterial, "Fluorescent ballast, 4-lamp T8", "each", "46.75", false},
			{api.LineMaterial, "HVAC filter 20x25x2 MERV 8", "each", "12.40", false},
		},
	},
	{
		id: 4102, name: "Harbor Point Hotels", desk: "Harbor Point Engineering", prefix: "HPH", currency: "USD", kind: "hotel",
		branch: 492042, quotes: true, blockOverNte: false, backdating: false, free: true,
		sites: []siteDef{
			{"Harbor Point Inner Harbor", "700 Aliceanna St", "Baltimore", "MD", "US", "21202", "Elena Vasquez", "Chief engineer, via front desk", "+1 410-555-0700", "engineering.baltimore@harborpoint.example"},
			{"Harbor Point Waterfront Seattle", "2411 Alaskan Way", "Seattle", "WA", "US", "98121", "James Okafor", "Director of engineering", "+1 206-555-2411", "engineering.seattle@harborpoint.example"},
			{"Harbor Point Savannah Riverfront", "15 E River St", "Savannah", "GA", "US", "31401", "Grace Holloway", "Front office manager", "+1 912-555-0015", "frontoffice.savannah@harborpoint.example"},
		},
		prices: []priceDef{
			{api.LineLabor, "Technician labour, standard rate", "hour", "110.00", false},
			{api.LineLabor, "Technician labour, after hours", "hour", "165.00", false},
			{api.LineTravel, "Trip charge", "visit", "95.00", true},
			{api.LineMaterial, "PTAC fan motor", "each", "184.20", false},
			{api.LineMaterial, "Pool heater igniter", "each", "129.99", false},
		},
	},
	{
		id: 4103, name: "Kensington Foods UK", desk: "Kensington Foods Property Services", prefix: "KFU", currency: "GBP", kind: "retail",
		branch: 492051, quotes: true, blockOverNte: true, backdating: true, free: false,
		sites: []siteDef{
			{"Kensington Foods Camden Town", "115 Camden High Street", "London", "Greater London", "GB", "NW1 7JN", "Oliver Pritchard", "Duty manager", "+44 20 7946 0115", "camden@kensingtonfoods.example"},
			{"Kensington Foods Clifton", "42 Whiteladies Road", "Bristol", "", "GB", "BS8 2LG", "Aisha Begum", "Store manager", "+44 117 496 0042", "clifton@kensingtonfoods.example"},
			{"Kensington Foods Deansgate", "255 Deansgate", "Manchester", "", "GB", "M3 4EN", "Ryan Doyle", "Store manager, rear entrance", "+44 161 496 0255", "deansgate@kensingtonfoods.example"},
		},
		prices: []priceDef{
			{api.LineLabor, "Engineer labour, standard rate", "hour", "68.00", true},
			{api.LineLabor, "Engineer labour, out of hours", "hour", "102.00", true},
			{api.LineTravel, "Call-out charge", "visit", "55.00", true},
			{api.LineMaterial, "LED panel 600x600", "each", "38.50", false},
			{api.LineMaterial, "Condensate pump", "each", "84.00", false},
			{api.LineMaterial, "Door gasket, reach-in chiller", "each", "46.20", false},
		},
	},
	{
		id: 4104, name: "Sakura Mart Japan", desk: "Sakura Mart Store Support", prefix: "SMJ", currency: "JPY", kind: "retail",
		branch: 492063, quotes: false, blockOverNte: true, backdating: false, free: true,
		sites: []siteDef{
			{"Sakura Mart Shinjuku 3-chome", "3-14-1 Shinjuku", "Shinjuku-ku", "Tokyo", "JP", "160-0022", "Kenji Watanabe", "Store manager", "+81 3-5555-0314", "shinjuku3@sakuramart.example"},
			{"Sakura Mart Umeda", "1-9-20 Umeda, Kita-ku", "Osaka", "Osaka", "JP", "530-0001", "Yui Nakamura", "Shift leader", "+81 6-5555-0920", "umeda@sakuramart.example"},
			{"Sakura Mart Sakae", "3-5-12 Sakae, Naka-ku", "Nagoya", "Aichi", "JP", "460-0008", "Hiroshi Sato", "Store manager", "+81 52-555-0512", "sakae@sakuramart.example"},
		},
		prices: []priceDef{
			{api.LineLabor, "Technician labour, standard rate", "hour", "8500", false},
			{api.LineLabor, "Technician labour, night", "hour", "12750", false},
			{api.LineTravel, "Dispatch fee", "visit", "5000", true},
			{api.LineMaterial, "Refrigerant R-410A", "kg", "6800", false},
			{api.LineMaterial, "LED tube 40W", "each", "2400", false},
		},
	},
	{
		id: 4105, name: "Rheinland Offices", desk: "Rheinland Offices Facility Management", prefix: "RHO", currency: "EUR", kind: "office",
		branch: 492051, quotes: true, blockOverNte: false, backdating: true, free: true,
		sites: []siteDef{
			{"Rheinland Offices MediaPark", "Im Mediapark 5", "Köln", "Nordrhein-Westfalen", "DE", "50670", "Katrin Hoffmann", "Haustechnik, Empfang EG", "+49 221 5555 0500", "haustechnik.koeln@rheinland-offices.example"},
			{"Rheinland Offices Königsallee", "Königsallee 92", "Düsseldorf", "Nordrhein-Westfalen", "DE", "40212", "Stefan Braun", "Facility manager", "+49 211 5555 0920", "fm.duesseldorf@rheinland-offices.example"},
			{"Rheinland Offices Bonn Campus", "Friedrich-Ebert-Allee 38", "Bonn", "Nordrhein-Westfalen", "DE", "53113", "Lena Schulz", "Reception", "+49 228 5555 0380", "empfang.bonn@rheinland-offices.example"},
		},
		prices: []priceDef{
			{api.LineLabor, "Technician labour (Normalstunde)", "hour", "78.00", false},
			{api.LineLabor, "Technician labour, weekend", "hour", "117.00", false},
			{api.LineTravel, "Call-out charge (Anfahrtspauschale)", "visit", "49.00", true},
			{api.LineMaterial, "Filter set, ventilation unit", "set", "29.90", false},
			{api.LineMaterial, "Emergency light battery pack", "each", "24.75", false},
		},
	},
	{
		id: 4106, name: "Lakeside Medical Group", desk: "Lakeside Medical Plant Operations", prefix: "LMG", currency: "USD", kind: "medical",
		branch: 492042, quotes: true, blockOverNte: true, backdating: false, free: true,
		sites: []siteDef{
			{"Lakeside Medical Clinic North", "5700 N Sheridan Rd", "Chicago", "IL", "US", "60660", "Dr. Nora Lindqvist", "Clinic administrator", "+1 773-555-5700", "ops.north@lakesidemedical.example"},
			{"Lakeside Medical Imaging Center", "1200 W Harrison St", "Chicago", "IL", "US", "60607", "Victor Chen", "Plant operations", "+1 312-555-1200", "plantops@lakesidemedical.example"},
		},
		prices: []priceDef{
			{api.LineLabor, "Technician labour, standard rate", "hour", "120.00", false},
			{api.LineLabor, "Technician labour, after hours", "hour", "180.00", false},
			{api.LineTravel, "Trip charge", "visit", "90.00", true},
			{api.LineMaterial, "Eyewash valve kit", "each", "142.00", false},
			{api.LineMaterial, "HVAC filter 24x24x4 MERV 13", "each", "31.60", false},
		},
	},
}

// jobDef is one kind of job: what the customer writes and what the work is.
type jobDef struct {
	workType string
	title    string
	message  string
	pm       bool // planned maintenance (Type PMRM)
	proc     int  // index into procedureDefs, -1 = none
}

var jobsByKind = map[string][]jobDef{
	"retail": {
		{"Refrigeration", "Walk-in freezer not holding temperature", "Walk-in freezer reading 18°F, should be -10°F. Product moved to the backup unit, please come today.", false, 0},
		{"Refrigeration", "Reach-in dairy case door gasket torn", "Door 3 of the dairy case does not seal, frost building up inside.", false, 0},
		{"Lighting", "Replace ballast in aisle 7 lighting", "Two fixtures flickering in aisle 7, one completely out.", false, 3},
		{"Lighting", "Parking lot pole light out near entrance B", "Pole light by entrance B has been out for three nights. Safety concern.", false, 3},
		{"Plumbing", "Grease trap overflowing in deli prep area", "Grease trap backing up into the floor drain in deli prep. Area closed off.", false, 4},
		{"Plumbing", "Customer restroom toilet running continuously", "Toilet in the women's restroom runs non-stop.", false, -1},
		{"HVAC", "Rooftop unit 3 short cycling, sales floor at 81°F", "RTU-3 starts and stops every few minutes, sales floor too warm.", false, 1},
		{"HVAC", "Quarterly HVAC filter change and belt inspection", "Planned maintenance: filters and belts on all rooftop units.", true, 1},
		{"Doors", "Automatic entrance door stuck open", "Main entrance slider stays open, store cannot be secured at closing.", false, -1},
		{"Doors", "Rear receiving door panic bar not latching", "Receiving door panic bar does not latch; door must be chained at night.", false, 2},
		{"Electrical", "Breaker tripping on checkout lane 4 circuit", "Lane 4 register loses power several times a day.", false, 2},
		{"General", "Ceiling tile water-stained above checkout 2", "Brown stain spreading on the tile above checkout 2 after last night's rain.", false, -1},
	},
	"hotel": {
		{"HVAC", "Guest room 412 PTAC unit noisy and not cooling", "Guest complaint: PTAC in 412 rattles and blows warm air. Room out of order.", false, 1},
		{"Pool", "Pool heater not firing, water at 71°F", "Pool heater shows ignition lockout. Guests complaining about the temperature.", false, -1},
		{"Refrigeration", "Ice machine on floor 3 not producing ice", "Ice machine by the floor 3 elevators makes no ice, water trickling.", false, 0},
		{"Plumbing", "Low hot water pressure on floors 5–7", "Several rooms on 5 to 7 report weak hot water in the mornings.", false, 4},
		{"Electrical", "Ballroom dimmer panel fault", "Ballroom lights stuck at full, dimmer panel shows an error. Event on Saturday.", false, 2},
		{"Doors", "Guest room 218 key card lock reading red", "Lock on 218 rejects all keys, battery replaced by staff without success.", false, -1},
		{"Kitchen", "Monthly kitchen exhaust hood inspection", "Planned maintenance: inspect and clean the main kitchen exhaust hood.", true, 2},
	},
	"office": {
		{"HVAC", "Conference room 3B too warm, VAV box not responding", "Room 3B at 27°C, thermostat set to 21°C. VAV damper does not move.", false, 1},
		{"Elevators", "Elevator 2 stopping below floor level", "Elevator 2 stops about 2 cm below the 4th floor, trip hazard.", false, 2},
		{"Lighting", "Replace emergency exit sign battery, stairwell C", "Exit sign in stairwell C failed the monthly test.", false, 3},
		{"Plumbing", "Kitchenette dishwasher leaking, 4th floor", "Dishwasher in the 4th floor kitchenette leaks onto the floor.", false, 4},
		{"Doors", "Main lobby revolving door slow to rotate", "Revolving door in the lobby turns slowly and stops.", false, -1},
		{"General", "Carpet tiles lifting in open-plan area", "Several carpet tiles lifting near desk row F, trip hazard.", false, -1},
		{"Fire safety", "Annual fire damper inspection", "Planned maintenance: test all fire dampers on floors 1–6.", true, 2},
	},
	"medical": {
		{"HVAC", "Exam room 6 supply air too cold", "Exam room 6 at 18°C, patients complaining.", false, 1},
		{"Plumbing", "Eyewash station low flow, lab corridor", "Weekly eyewash test: flow well below requirement.", false, 4},
		{"Electrical", "Generator transfer switch test failed", "Monthly ATS test did not transfer within 10 seconds.", false, 2},
		{"Medical gas", "Medical gas alarm panel quarterly test", "Planned maintenance: quarterly test of the medical gas alarm panels.", true, 2},
		{"Lighting", "Replace flickering troffers in waiting room", "Three troffers flicker in the main waiting room.", false, 3},
	},
}

type stepDef struct {
	desc, label, dataType string
	photo                 bool // a step that usually carries a photo or report
}

type procedureDef struct {
	name  string
	steps []stepDef
}

var procedureDefs = []procedureDef{
	{"Refrigeration service checklist", []stepDef{
		{"Record box temperature before service", "Temperature before (°F)", "Float", false},
		{"Photo of the evaporator coil", "Coil photo", "String", true},
		{"Check door gaskets and heaters", "Gaskets OK", "Bool", false},
		{"Record box temperature after service", "Temperature after (°F)", "Float", false},
	}},
	{"HVAC preventive maintenance", []stepDef{
		{"Replace filters and record the size", "Filter size", "String", false},
		{"Inspect and tension belts", "Belts OK", "Bool", false},
		{"Photo of the unit nameplate", "Nameplate photo", "String", true},
		{"Record supply and return air temperatures", "Supply / return", "String", false},
	}},
	{"Site safety checklist", []stepDef{
		{"Wet floor signs or barriers placed", "Barriers placed", "Bool", false},
		{"Lock-out / tag-out applied where needed", "LOTO applied", "Bool", false},
		{"Signed service report left with the site", "Service report", "String", true},
	}},
	{"Lighting repair record", []stepDef{
		{"Fixture location", "Location", "String", false},
		{"Lamps or ballasts replaced", "Lamps replaced (pcs)", "Integer", false},
		{"Photo of the completed work", "Completion photo", "String", true},
		{"Parts bought on site, if any", "Parts bought", "Money", false},
	}},
	{"Plumbing repair record", []stepDef{
		{"Shut-off valve location", "Valve location", "String", false},
		{"Photo of the leak source", "Leak photo", "String", true},
		{"Pressure held during the test", "Test pressure (psi)", "Integer", false},
	}},
}

var customerMessages = []string{
	"Please call the store manager before arrival; deliveries until 10 am block the rear entrance.",
	"Any update on the ETA? The area is still closed off.",
	"Parts approved, please go ahead.",
	"Access through the loading dock only, sign in with security.",
}

var contractorMessages = []string{
	"Technician scheduled for tomorrow at 8:00.",
	"Part on order, expected in two working days.",
	"Temporary fix in place; permanent repair needs a quote.",
}

var technicians = []string{"Miguel Alvarez", "Sarah Chen", "Dmitri Volkov", "Hannah Schmidt", "Takeshi Mori", "Chloe Evans"}
